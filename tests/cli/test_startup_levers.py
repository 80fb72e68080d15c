"""Issue 35 item 2: what a command no longer loads at start-up, and that TLS still verifies.

Each check runs in a fresh interpreter that goes through the command-line entry point's set-up
(p2ptarot._startup.install), as every `p2ptarot` process does."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split()


def test_a_lan_peer_loads_no_certificates_and_no_aiodns() -> None:
    out = _python("""
        import sys
        from p2ptarot._startup import install
        install()
        import p2ptarot.net.wsmesh
        from aiohttp import connector, resolver
        contexts = (connector._SSL_CONTEXT_VERIFIED, connector._SSL_CONTEXT_UNVERIFIED)
        print(sys.modules.get("aiodns") is None, resolver.DefaultResolver.__name__,
              all(type(c).__name__ == "DeferredCertsContext" for c in contexts),
              all(c.__dict__ for c in contexts),  # both still owe their certificates
              contexts[0].check_hostname, int(contexts[0].verify_mode))
        import ssl
        fresh = ssl.create_default_context()  # after the import, contexts load as before
        print(type(fresh).__name__, fresh.cert_store_stats()["x509_ca"] > 0)
        import os
        from pydantic.plugin._loader import get_plugins
        print(os.environ["PYDANTIC_DISABLE_PLUGINS"], list(get_plugins()))
    """)
    assert out == ["True", "ThreadedResolver", "True", "True", "True", "2", "SSLContext", "True",
                   "__all__", "[]"]


def test_a_wss_link_loads_the_certificates_and_still_refuses_an_unknown_one(tmp_path: Path) -> None:
    """A TLS server on 127.0.0.1 with a self-signed certificate: aiohttp's default (verifying)
    context, made at import with its certificates put off, loads them at the handshake and
    refuses the server, exactly as a context made the usual way."""
    out = _python(f"""
        import asyncio, datetime, ipaddress, ssl, sys
        from p2ptarot._startup import install
        install()
        import aiohttp
        from aiohttp import connector, web
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID

        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
        now = datetime.datetime.now(datetime.timezone.utc)
        cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                .public_key(key.public_key()).serial_number(1)
                .not_valid_before(now - datetime.timedelta(days=1))
                .not_valid_after(now + datetime.timedelta(days=1))
                .add_extension(x509.SubjectAlternativeName(
                    [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
                .sign(key, hashes.SHA256()))
        pem = r"{tmp_path}"
        open(pem + "/c.pem", "wb").write(cert.public_bytes(serialization.Encoding.PEM))
        open(pem + "/k.pem", "wb").write(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
        server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_ctx.load_cert_chain(pem + "/c.pem", pem + "/k.pem")

        async def main():
            app = web.Application()
            app.router.add_get("/", lambda r: web.Response(text="hi"))
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=server_ctx)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]
            verified = connector._SSL_CONTEXT_VERIFIED
            owed = bool(verified.__dict__)
            refused = False
            async with aiohttp.ClientSession() as session:
                try:
                    await session.get(f"https://127.0.0.1:{{port}}/")
                except aiohttp.ClientConnectorCertificateError as exc:
                    refused = "self-signed" in str(exc) or "issuer" in str(exc)
                trusting = ssl.create_default_context(cafile=pem + "/c.pem")
                async with session.get(f"https://127.0.0.1:{{port}}/", ssl=trusting) as r:
                    body = await r.text()
            loaded = verified.cert_store_stats()["x509_ca"]
            print(owed, refused, not verified.__dict__, loaded > 0,
                  loaded == ssl.create_default_context().cert_store_stats()["x509_ca"], body)
            await runner.cleanup()

        asyncio.run(main())
    """)
    assert out == ["True", "True", "True", "True", "True", "hi"]


def test_the_collector_is_held_while_a_command_loads_then_freezes_what_it_loaded() -> None:
    """Issue 36: no collection while the command line is parsed and its modules are imported; then
    the collector is on again, with what was loaded frozen only for a process's own command line."""
    out = _python("""
        import gc, sys
        from p2ptarot._startup import collector_held
        with collector_held(freeze=False):
            inside = gc.isenabled()
            import p2ptarot.peer.run
        print(inside, gc.isenabled(), gc.get_freeze_count() == 0)
        gc.disable()
        with collector_held(freeze=True):
            import p2ptarot.net.wsmesh
        print(gc.isenabled(), gc.get_freeze_count() > 10000)
        gc.enable()
        from p2ptarot.cli import main
        gc.unfreeze()
        import contextlib, io
        with contextlib.redirect_stdout(io.StringIO()):
            main.main(["games", "--lang", "en"])  # called by a caller: nothing of its frozen
        print(gc.isenabled(), gc.get_freeze_count() == 0)
    """)
    assert out == ["False", "True", "True", "False", "True", "True", "True"]


def test_a_command_line_exits_normally_with_the_collector_lever() -> None:
    """`--help` leaves through SystemExit inside the held block: the process still exits 0 and
    prints the help; a peer command still runs to its lobby time-out as before."""
    done = subprocess.run([sys.executable, "-m", "p2ptarot.cli.main", "host", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "--seats" in done.stdout, done.stderr[-2000:]
