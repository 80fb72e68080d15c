"""The transcript format and the offline verifier (pure; files are read and written by
`p2ptarot.peer.store`)."""

from .format import Transcript, TranscriptError, header_line, parse_transcript
from .verify import Verdict, verify_transcript

__all__ = ["Transcript", "TranscriptError", "Verdict", "header_line", "parse_transcript",
           "verify_transcript"]
