"""English sentences made below the front ends, in the interface's language.

The engine, the rule language (ERL), the table and the network layers are sans-I/O and
language-free: their exceptions, abort reasons and last events are English sentences, kept
English in logs and transcripts (an abort reason is signed on the wire and read by every peer).
What a player reads goes through `say`: the sentence is matched against the templates below
(each one the English wording of a raise site, its variable parts as ``{fields}``), and the
template's translation is filled with the fields, each one said again (a nested reason, a
token's description, a type name). A sentence no template matches is shown as it came;
`tests/i18n/test_reasons.py` checks that every message the rule language, the finders and
the room raise has a template.
"""

from __future__ import annotations

import re
from functools import lru_cache
from string import Formatter

from p2ptarot.i18n import N_, _, language

#: the sentences, by the layer that makes them (the order does not matter: the template with
#: the most literal text wins a tie)
TEMPLATES: tuple[str, ...] = (
    # the rule language (games/eleusis/erl): lexer, parser, checker, hints
    N_("line {line}, column {column}: {message}"),
    N_("a rule is a text"),
    N_("the rule text is longer than {max} bytes"),
    N_("the rule text must be ASCII"),
    N_("the rule text is {size} bytes, more than {max}"),
    N_("a number may not run into a name: {text}"),
    N_("integer {digits} is larger than {max}"),
    N_("names use lower-case letters, digits and '_' only"),
    N_("name {name}… is longer than {max} characters"),
    N_("lines end with LF; carriage returns are not allowed"),
    N_("unexpected character {char} (names are lower-case)"),
    N_("unexpected character {char}"),
    N_("expected {what}, found {found}"),
    N_("the rule nests more than {max} levels deep"),
    N_("comparisons do not chain; combine them with 'and'"),
    N_("'{word}' inside an operator must be in parentheses"),
    N_("unexpected {found} after a complete expression"),
    N_("'{name}' is a reserved word and cannot be a let name"),
    N_("expected a name after 'let', found {found}"),
    N_("'{name}' is not a card: the cards are c, p1, p2 and p3"),
    N_("expected a value, found {found}"),
    N_("'{word}' is an attribute: write it after a card, as in c.{word}"),
    N_("a card is used through an attribute: write {card}.rank, {card}.suit, …"),
    N_("expected an attribute ({attributes}), found {found}"),
    N_("{function} takes 'rank' or 'suitnum', found {found}"),
    N_("the window after 'last' is 1, 2 or 3, found {found}"),
    N_("the rule has {count} syntax-tree nodes, more than {max}"),
    N_("the rule nests {height} levels deep, more than {max}"),
    N_("{role} must be {expected}, not {got}"),
    N_("name '{name}' is not bound by an enclosing let"),
    N_("{card} may not exist here: guard it with n >= {need} (the main line may hold only {bound} card)"),
    N_("{card} may not exist here: guard it with n >= {need} (the main line may hold only {bound} cards)"),
    N_("'{op}' compares {left} with {right}"),
    N_("'{op}' orders ints only, not {got}"),
    N_("the rule's sets hold more than {max} elements"),
    N_("a set element must be {expected} like the value tested, not {got}"),
    N_("the branches of 'if' differ: {then} and {orelse}"),
    N_("the rule has more than {max} let bindings"),
    N_("name '{name}' is already bound here"),
    N_("the rule after 'accept' must be a bool, not {got}"),
    N_("unknown structured hint {hint} (known: {known})"),
    N_("the end of the rule"), N_("number {n}"), N_("name '{name}'"),
    N_("an int"), N_("a bool"), N_("a suit"), N_("a colour"),
    N_("an 'if' condition"), N_("an arithmetic operand"), N_("an operand of 'and'"),
    N_("an operand of 'or'"), N_("the left side of 'implies'"), N_("the operand of 'not'"),
    N_("the operand of '{op}'"),
    # Eleusis' last events (games/eleusis/state.py)
    N_("the Sage calls {verdict}"), N_("{who} declares \"no play\""), N_("{who} plays {cards}"),
    N_("the dealer says {verdict}"), N_("the dealer answers {answer}"), N_("the Sage names {card}"),
    N_("{who} is a false prophet"), N_("{who} is eliminated"), N_("{who} declares himself Sage"),
    N_("right"), N_("wrong"), N_("yes"), N_("no"),
    # finding and joining a table (net/finder.py, net/online/finder.py, net/transport.py, room)
    N_("{text} is not an address of the form {scheme}HOST:PORT"),
    N_("p2ptarot tables speak plain ws:// on the LAN; give ws://HOST:PORT"),
    N_("{text} is neither ws://HOST:PORT, HOST:PORT, nor a fingerprint or table id from `p2ptarot list`"),
    N_("the table of {fingerprint} is full ({taken}/{total} seats)"),
    N_("no open {game} table hosted by {host} seen on the LAN within {wait} s "
       "(is the host running, and on this network?)"),
    N_("no open table hosted by {host} seen on the LAN within {wait} s "
       "(is the host running, and on this network?)"),
    N_("no open {game} table seen on the LAN within {wait} s (is the host running, and on this network?)"),
    N_("no open table seen on the LAN within {wait} s (is the host running, and on this network?)"),
    N_("no table chosen"),
    N_("{count} open {game} tables on the LAN; name the one to join "
       "(join FINGERPRINT or join ws://HOST:PORT):\n{listing}"),
    N_("{count} open tables on the LAN; name the one to join "
       "(join FINGERPRINT or join ws://HOST:PORT):\n{listing}"),
    N_("{count} different hosts advertise the code {code}: someone is impersonating the table; "
       "ask the host for their fingerprint"),
    N_("cannot connect to {url}: {why}"),
    N_("connected to itself"), N_("unexpected peer key"), N_("not a member of this table"),
    N_("handshake timed out"), N_("connection lost in handshake: {why}"), N_("closed by peer"),
    N_("connection closed in handshake"), N_("link closed during the handshake"),
    N_("shutdown"),
    N_("link lost in the handshake: {why}"), N_("bad signature"),
    N_("binary frame in handshake"), N_("handshake frame too large"),
    N_("protocol version {theirs} not supported (this peer speaks {ours})"),
    N_("{address} is not an online seat address (nostr:<key>)"), N_("that address is this peer's own"),
    N_("{game} needs {low} to {high} players; {count} ready"),
    # why a connection failed, as the HTTP client and the operating system word it (aiohttp's
    # ClientConnectorError, OSError's strerror)
    N_("Cannot connect to host {host} ssl:default [{why}]"),
    N_("Cannot connect to host {host} ssl:{ssl} [{why}]"),
    N_("Connect call failed ('{ip}', {port})"), N_("Connect call failed"),
    N_("[Errno {errno}] {why}"), N_("Connection refused"), N_("Connection reset by peer"),
    N_("Connection timed out"), N_("Network is unreachable"), N_("No route to host"),
    N_("Name or service not known"), N_("Temporary failure in name resolution"),
    N_("Server disconnected"),
    # the engine's registry: a game, its variant, its options (engine/registry.py)
    N_("unknown game {name} (known: {known})"),
    N_("{game} is played by {low} to {high} players, not {count}"),
    N_("{game} has no option {name} (options: {accepted})"),
    N_("{game} option {name} must be of type {kind}, not {got}"),
    N_("{game} option {name} must be one of {choices} at {count} players, not {got}"),
    N_("{game} option {name} must be in {low}..{high} at {count} players, not {got}"),
    N_("{game} has no variants (got {name})"),
    N_("{game} has no variant {name} (variants: {known})"),
    N_("{game} variant {name} is {status}, not built yet (playable: {known})"),
    # why a game stopped with nobody to blame (table/session.py, table/evidence.py)
    N_("abandoned: {what} waited past the table's limit, waiting on {who} since {since}; "
       "silence convicts nobody"),
    N_("abandoned: {what} waited past the table's limit, waiting on {who}; silence convicts nobody"),
    N_("abandoned: {what} cannot complete: {who}'s message chains to another history than this "
       "seat's (some seat showed peers different messages, and both versions never reached this "
       "seat); nobody is convicted"),
    N_("{who} stopped the game at step {step}, accusing {accused}: {reason}; the evidence it "
       "carried proves nothing to this seat's own checks, so nobody is convicted"),
    N_("the game ended void (no outcome) and its audit proved no seat at fault"),
    N_("step {step} ({label})"), N_("nobody"), N_("left the table"),
    N_("illegal: {reason} ({where})"), N_("illegal: {reason}"),
    N_("rejected by the rules engine: {reason}"),
    N_("equivocation: two signed messages for step {step}"),
    # a move's reason in a cheating verdict: the engine (engine/state.py, errors.py), a claim
    N_("seat {seat}: {reason} ({where})"),
    N_("seat {seat}: {reason}"),
    N_("{json} is not a legal move now"),
    N_("{name} is not a move of {NAME}"),
    N_("{KIND} field {wrong} has a value of the wrong type"),
    N_("a secret needs a name"),
    N_("secret {name} is already committed"),
    N_("secret {name} committed without its value"),
    N_("no secret {name} was committed"),
    N_("secret {name} belongs to seat {owner}"),
    N_("secret {name} is already open"),
    N_("opened secret {name} to a value it did not commit"),
    # arcanoïd (games/arcanoid): its arcana, engagements, secret engagements, variants; where
    N_("only the Star, Moon and Sun call cards"),
    N_("{card} cannot call {called}"),
    N_("further calls are for minor arcana"),
    N_("give the called card from the hidden hand"),
    N_("that card is not the called card"),
    N_("claimed not to hold {called} while holding it"),
    N_("handles and cards must match one to one"),
    N_("a Chariot is already active"),
    N_("the Chariot is loaded with at least one other card"),
    N_("no active Chariot"),
    N_("add 1 to {of} cards to the Chariot"),
    N_("card {h} is not available as {c}"),
    N_("this participant is not asked in this Fool window"),
    N_("only the Fool steals"),
    N_("that Fool is not available to this participant"),
    N_("that card is not the Fool"),
    N_("only a Hermit owner with a free Hermit move cuts in with the Justice's Fool"),
    N_("a cut-in names an asked participant or the engager"),
    N_("the Hanged Man targets a participant in the round or the Justice"),
    N_("Judgement needs a participant in the round without a record on that field"),
    N_("the World needs a field where nothing was ever engaged (and not tempered by someone else)"),
    N_("unknown Hierophant category {category}"),
    N_("a Hierophant show comes from the hidden hand"),
    N_("card {h} is not of category {cat}"),
    N_("Hierophant: withheld a card of category {cat}"),
    N_("the High Priestess targets another participant in the round"),
    N_("Strength: 'visible' or 'hidden'"),
    N_("Temperance needs a non-empty pile and a field without the player's card engagement"),
    N_("a Tower without a target names no field"),
    N_("the Tower removes a card engagement of a participant in the round"),
    N_("discard down to capacity; replace discarded visible cards by newly drawn ones"),
    N_("card {h} is not {c}"),
    N_("the transmuted card is not in the engagement"),
    N_("card {h} is not available to this participant"),
    N_("already engaged on {f}"),
    N_("{f} is tempered"),
    N_("handle {handle} is not available to participant {pid}"),
    N_("one secret engagement per round"),
    N_("a secret engagement goes on a field where you have no record"),
    N_("{field} is tempered"),
    N_("a secret engagement holds at least one card, each once (A83)"),
    N_("a secret engagement uses available cards only"),
    N_("the outcome is 'stolen' or 'lost'"),
    N_("the secret engagement is stealable: the outcome is {truth}"),
    N_("the secret engagement is not stealable: the outcome is {truth}"),
    N_("claimed not to hold {card}, but held it"),
    N_("Hierophant: withheld {card} ({category})"),
    N_("{KIND} is not an answer to {name}"),
    N_("{name} {card} cannot make this move"),
    N_("card {handle} is not available to this participant"),
    N_("card {handle} is not {card}"),
    N_("card {h} is not {card}: it opened as {known}"),
    N_("discard one of your available cards"),
    N_("abdicate on a field where you have no record"),
    N_("that card was already called"),
    N_("declared cards do not match"),
    N_("{KIND} is not a turn move"),
    N_("vote 'yes' or 'no'"),
    N_("the Magician is shown and discarded, not engaged"),
    N_("only the owner of the active Temperance removes it"),
    N_("only a lone ace is reinforced, once"),
    N_("a reinforcement uses available cards, each once"),
    N_("an engagement needs at least one card"),
    N_("one field, or two different fields for a couple of majors"),
    N_("duplicate cards"),
    N_("not a legal couple (E6/E7)"),
    N_("only the imperial couple and the Lovers with a ruler may stand on two fields"),
    N_("this major arcanum cannot be engaged this way"),
    N_("the Magician transmutes one numeric card of another suit"),
    N_("nothing may be added to the royal couple"),
    N_("the Magician is never engaged alone"),
    N_("a numeric engagement holds numeric cards only"),
    N_("numeric cards of the field's suit (one other-suit card if the Magician transmutes it)"),
    N_("nothing is transmuted in a couple"),
    N_("a page or knight of the field's suit, alone or with one ace"),
    N_("a page or knight is engaged alone"),
    N_("the Magician joins a page or knight only with an ace"),
    N_("a page or knight goes with exactly one ace"),
    N_("an ace of another suit needs the Magician to transmute it"),
    N_("secret engagement on {field}: {err}"),
    N_("a reinforcement holds at least one card, handles and cards one to one"),
    N_("the transmuted card is not in the reinforcement"),
    N_("a reinforcement is never a couple"),
    N_("a page or a knight reinforces alone"),
    N_("Fool on the secret engagement on {field}: announced {outcome}, was {truth}"),
    N_("round {round}, move {move}"),
    # Arcanum (games/arcanum/legal.py); where
    N_("name distinct cards of your {what}"),
    N_("give one card id per handle"),
    N_("{KIND} does not answer {name}"),
    N_("card {handle} is not in your hand"),
    N_("majors are not in play"),
    N_("discard exactly {count} cards"),
    N_("the minor just drawn by force must be played (A1)"),
    N_("hide {low} to {max} minors"),
    N_("no figure can move: the Fool can only be hidden (R33)"),
    N_("four changes, each -1, 0 or 1, in house order"),
    N_("discard exactly one card"),
    N_("a House is one of {HOUSES}"),
    N_("two different Houses (R33)"),
    N_("give exactly {want} cards (R35)"),
    N_("discard 1 or 2 minors (R32)"),
    N_("up to two swaps, one hidden card and one card id entry per given card"),
    N_("one location, or two forming a tower pair of the board (R22)"),
    N_("remove a figure on the board outside frozen locations (R23)"),
    N_("an unfrozen location no other returned figure went to (R23)"),
    N_("turn exactly {want} face-down hidden cards face up (R24)"),
    N_("you hold a minor: no forced draw (R11)"),
    N_("you hold no minor: draw one (R11)"),
    N_("{c} is not an Arcanum card"),
    N_("card {h} is a {known}, not {c}"),
    N_("{c} is not a {kind}"),
    N_("only minors can be hidden this way"),
    N_("choose one of {options}"),
    N_("a minor must be played first (§4.2)"),
    N_("one minor per activation"),
    N_("{card} cannot move {nothing} to {dest}"),
    N_("one major per activation"),
    N_("Death needs a minor in hand (R32)"),
    N_("you hold a minor: hide one"),
    N_("the Fool's joker must move a figure"),
    N_("move a figure outside frozen locations to another unfrozen one"),
    N_("trade exactly one card"),
    N_("majors are not in play (R45)"),
    N_("hide exactly one minor"),
    N_("a major entering the hidden area is opened (R25)"),
    N_("only minors and the Fool can be hidden (R25)"),
    N_("claim {kind} about card {handle} was false: it is {card}"),
    N_("turn {turn}"),
    N_("turn {turn}, P{player}'s activation"),
    # Eleusis (games/eleusis/legal.py, claims.py): the dealer's statements; where
    N_("a {KIND} move is not expected in the {phase} step"),
    N_("the rule of this round is committed as {name}, not {other}"),
    N_("a committed value is a text"),
    N_("structured hints are a list of at most {HINTS} texts"),
    N_("a free-text hint is at most {TEXT} printable characters"),
    N_("a structured hint is given twice"),
    N_("handles and cards are two lists of one length"),
    N_("handles are integers"),
    N_("cards are card ids"),
    N_("a card is named twice"),
    N_("a play is one card or a run of 2 to {run}"),
    N_('"no play" shows the whole hand'),
    N_("a pick names a handle and its card"),
    N_("{card} at handle {handle} is not a card of the shown hand"),
    N_("the round's rule is {name}, not {other}"),
    N_("an opened value is a text"),
    N_("the opened rule is not the committed one"),
    N_("handle {h} is not in the hand"),
    N_("handle {h} holds {known}, not {c}"),
    N_("{c} is already known at another handle"),
    N_("invalid rule: {exc}"),
    N_("{c} is not a standard card"),
    N_("a verdict is 'right' or 'wrong', not {verdict}"),
    N_("an answer is 'yes' or 'no', not {answer}"),
    N_("the dealer's statement contradicts his rule: he {statement}"),
    N_("gave the structured hints {hints}"),
    N_("named {card} a correct card"),
    N_("answered {answer} to the Sage's pick {card}"),
    N_("judged {verdict} on {cards}"),
    N_('judged {verdict} on the "no play" of {cards}'),
    N_("answered {answer} to the Sage's call {call} on {cards}"),
    N_('answered {answer} to the Sage\'s call {call} on the "no play" of {cards}'),
    N_("round {round}, before the deal"),
    N_("round {round}, rule opening"),
    N_("round {round}, play {play}"),
    # paris divins (games/paris_divins/state.py); where
    N_("has already chosen this round"),
    N_("only a wager is made now, not {KIND}"),
    N_("handle {h} is not a card of its hand still to play"),
    N_("bet {bet} is not one of {BETS}"),
    N_("round {round}"),
    # sinople (games/sinople/state.py, claims.py); where
    N_("false {kind} claim: {what} but held {value}"),
    N_("{reason} (the opener search found no opener){also}"),
    N_("{reason} (the opener search found no opener)"),
    N_("; seat(s) {seats} also denied a card they held"),
    N_("the opener search takes only show or pass"),
    N_("showed {card}; the search asks for {target}"),
    N_("{card} is not a numeric sinople card"),
    N_("does not hold handle {handle}"),
    N_("only a card may be played now, not {KIND}"),
    N_("passed while holding {target} (false not-holding claim)"),
    N_("{idx} is already known at handle {other}"),
    N_("handle {handle} holds {known}, not {idx}"),
    N_("must follow class {upper}: holds {v}"),
    N_("round {round}, opener search for {card}"),
    N_("round {round}, trick {trick}"),
    # trois roses (games/trois_roses/state.py); where
    N_("false claim of holding {sentence}: held {card}"),
    N_("{card} is not a Tarot des Roses card"),
    N_("{idx} is known to be at handle {other}"),
    N_("played {idx} while holding {v} (must hold {sentence})"),
    N_("deal {deal}, trick {trick}"),
    # a seat's protocol violation (table/codec.py, intake.py, session.py)
    N_("malformed move body: a null secret"),
    N_("malformed move body: a null by"),
    N_("commitment for another draw"),
    N_("malformed {kind} body: {msg}"),
    N_("unreadable move: {exc}"),
    N_("committed secret {name} with its value in the clear"),
    N_("committed secret {name} without its commitment"),
    N_("its move does not match the commitment it signed in step {step}: {exc}"),
    N_("opened secret {name} to a value that does not match its commitment of step {step}"),
    N_("opening does not match its commitment: {exc}"),
    N_("opened secret {name} without its salt"),
    N_("a {KIND} move carries a secret"),
    N_("its own sealed secret {name} cannot be read back: {exc}"),
    N_("signed a message of protocol version {v} at a table of version {protocol}"),
    N_("step {step}: a {kind} message for another operation than {label}"),
    N_("spoke in step {step} where it was not expected"),
    N_("signed a different outcome"),
    N_("rejected by the rules engine: {exc}"),
    N_("move names handle {handle}, which does not exist"),
    N_("tried to open handle {handle}, a card it does not hold"),
    N_("malformed move: {exc}"),
    N_("false claim: {reason}"),
    N_("step {step}: sent {kind}, expected {value}"),
    N_("deck protocol: {exc}"),
    # the deck protocol's and the proofs' faults inside a verdict (mental/, crypto/), and the
    # messages a table drops (table/intake.py)
    N_("{field}: expected an integer in [0, {upper}]"),
    N_("{field}: expected a string of 1..{max} characters"),
    N_("{field}: expected a list of at most {max} items"),
    N_("{what}: expected an object"),
    N_("{what}: missing keys {missing}, unexpected keys {extra}"),
    N_("message claims to come from seat {seat}"),
    N_("message for deck {deck} epoch {epoch} routed to deck {deck2} epoch {epoch2}"),
    N_("{KIND}: no operation in progress"),
    N_("{KIND} answers operation {op}, but operation {cursor} is in progress"),
    N_("sent {KIND}, expected {kind}"),
    N_("{KIND}: seat {sender} is not expected to send now (already sent, or not its turn)"),
    N_("shuffle names inputs {inputs} and outputs {outputs}, expected {want_in} and {want_out}"),
    N_("shuffle has {count} ciphertexts, expected {stage}"),
    N_("re-encryptions for {got}, expected {want}"),
    N_("shares for {got}, expected {want}"),
    N_("seats {low} and {high} published the same key"),
    N_("joint key is the identity"),
    N_("key proof rejected: {exc}"),
    N_("shuffle proof rejected: {exc}"),
    N_("re-encryption of handle {handle} rejected: {exc}"),
    N_("decryption share for handle {handle} version {version} rejected: {exc}"),
    N_("message: expected an object with a string 'kind'"),
    N_("message: unknown kind {kind}"),
    N_("message: missing {exc}"),
    N_("no deck {deck} epoch {epoch} is open"),
    N_("malformed message: {exc}"),
    N_("commitment: opening does not match digest (label {label})"),
    N_("schnorr: challenge mismatch (no knowledge of log_G h for this context)"),
    N_("{what}: challenge mismatch (log_g1 h1 != log_g2 h2 for this statement)"),
    N_("share"), N_("reencryption"),  # the proofs' names there (crypto/proofs.py)
    N_("{name}: statement point {key} is the identity"),
    N_("shuffle: empty input"),
    N_("shuffle: {out} outputs for {n} inputs"),
    N_("shuffle: proof sized for another N (expected {n})"),
    N_("shuffle: public key is the identity"),
    N_("shuffle: {check} mismatch"),
    N_("dropped a message of another table"),
    N_("dropped a message from unknown seat {seat}"),
    N_("dropped a message for step {step}, too far ahead"),
    N_("dropped a message: {exc}"),
    N_("dropped a malformed abort record from seat {seat}"),
    N_("dropped {problem}"),
    N_("a malformed abort record from seat {seat}: protocol version {v} at a table of version {protocol}"),
    N_("a malformed abort record from seat {seat}: it blames seat {blame} of a {n}-seat table"),
    N_("a malformed abort record from seat {seat}: its first piece of evidence is not an envelope"),
    N_("a malformed abort record from seat {seat}: its body names step {step}, not {due} (the step of its first piece of evidence)"),
    N_("a malformed abort record from seat {seat}: its body names step {step}, not {due} (the step of its envelope)"),
    N_("dropped a malformed digest from seat {seat}"),
    N_("seat {seat}'s message for step {step} chains to another history: comparing digests with it"),
    N_("{what}: expected {size} bytes"),
    N_("{what}: {part} must be {size} bytes"),
    N_("scalar: not reduced (>= l)"),
    N_("shuffle proof: n must be >= 1"),
    N_("shuffle proof: expected {size} bytes for n={n}"),
    N_("signature: bad public key ({exc})"),
    # a field's label and a nested reason (mental/codec.py, table/canonical.py): the least literal
    # template, tried last
    N_("{label}: {detail}"),
    N_("point: not the canonical encoding of a non-identity ristretto255 element"),
    # `p2ptarot verify`'s verdicts and a transcript that cannot be read (transcript/, peer/store.py,
    # table/envelope.py, canonical.py, bodies.py); online settings (net/online/config.py)
    N_("{name} is empty"),
    N_("{name}: first line is not a p2ptarot transcript header"),
    N_("{name}: line 1: bad transcript header: {exc}"),
    N_("{name}: line 1 (the header) does not end with \\n"),
    N_("line {number} {problem}"),
    N_("line {number} is empty (a blank line)"),
    N_("line {number} holds a carriage return (lines end with \\n only)"),
    N_("line {number} does not end with \\n (cut short)"),
    N_("opening for another draw: purpose {purpose} where its commitment named {named}"),
    N_("cannot read {path}: {strerror}"),
    N_("{reason} (the file is not a consistent log; no seat is implicated)"),
    N_("incomplete: the players stopped the game (seat {by} accused {accused}: {reason}), and "
       "replaying every message and every piece of evidence in the file proves no seat at fault"),
    N_("incomplete: the players stopped the game (seat {by} accused {accused}: {reason}), and "
       "replaying every message and every piece of evidence in the file proves no seat at fault; {note}"),
    N_("incomplete: the players stopped the game (seat {by} accused {accused}: {reason}), and "
       "replaying every message and every piece of evidence in the file proves no seat at fault{note}"),
    N_("incomplete: the transcript ends before the game does"),
    N_("incomplete: the transcript ends before the game does; {note}"),
    N_("incomplete: the transcript ends before the game does (step {step} waits for seat(s) {seats})"),
    N_("incomplete: the transcript ends before the game does (step {step} waits for seat(s) {seats}); "
       "{note}"),
    N_("charter: {exc}"),
    N_("line {index} repeats line {line} verbatim"),
    N_("line {index}: {problem}"),
    N_("its last line is cut or unreadable ({exc})"),
    N_("its last line is not correctly signed ({problem})"),
    N_("seat {seat} signed an abort record at step {at} and then a message for step {step}"),
    N_("an abort record of another table"),
    N_("an abort record from unknown seat {seat}"),
    N_("abort record: {exc}"),
    N_("a malformed abort record from seat {seat}"),
    N_("message after the end of the game"),
    N_("out of order: seat {seat}'s message for step {step} where step {due} is due"),
    N_("out of order within step {step} (expected seat {seat} next)"),
    N_("{url} is not a relay URL (ws://HOST[:PORT] or wss://...)"),
    N_("{url} is not stun:HOST[:PORT] or turn:HOST[:PORT]"),
    N_("a TURN server needs a username and a credential"),
    N_("online play needs at least one relay (--relay URL)"),
    N_("transport is 'auto' or 'relay'"),
    N_("relay_chunk must be within 1000..24000"),
    N_("a message is a JSON object"),
    N_("message of {size} bytes exceeds the limit of {limit}"),
    N_("unreadable message: {exc}"),
    N_("bad envelope: {where}: {msg}"),
    N_("step {step}, seat {seat}: bad signature"),
    N_("cannot encode {name} canonically"),
    N_("floats are not allowed in canonical JSON (integers only)"),
    N_("{name} is not JSON"),
    N_("nesting too deep"),
    N_("integer of more than {digits} digits"),
    N_("a record is bytes"),
    N_("record of {size} bytes exceeds the limit of {limit}"),
    N_("not in canonical form (key order, whitespace or escapes)"),
    N_("{what}: expected {size} bytes, got {got}"),
    N_("duplicate key {key}"),
    N_("not JSON: {detail}"),
    N_("object keys must be strings"),
    N_("string holds a lone UTF-16 surrogate (not Unicode text)"),
    N_("evidence larger than any step message"),
    N_("unreadable evidence: {exc}"),
    N_("{reason} — evidence: {quoted}"),
    N_("seat {seat}'s signed {kind} of step {step} (digest {digest})"),
    # the page's refused commands (app/events.py; json's own first error)
    N_("a command is a JSON object"),
    N_("move needs integer turn and index"),
    N_("chat needs a text"),
    N_("sit needs a target"),
    N_("host needs a game, a variant, whole numbers of seats and bots"),
    N_("host: seats 1 to 64, bots fewer than the seats"),
    N_("host: online is true or false"),
    N_("host: options map names to numbers, words or true/false"),
    N_("ready takes true or false"),
    N_("unknown command {cmd}"),
    N_("write needs an integer turn"),
    N_("write needs a form among {forms}"),
    N_("a written text is a string"),
    N_("a written text is valid Unicode"),
    N_("a written text is at most {max} bytes"),
    N_("choices are at most {max} short strings"),
    N_("handles are at most {max} small integers"),
    N_("check is true or false"),
    N_("Expecting value: line {line} column {column} (char {char})"),
)

_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(template: str) -> re.Pattern[str]:
    parts, seen, pos = [], set(), 0
    for m in _FIELD.finditer(template):
        parts.append(re.escape(template[pos:m.start()]))
        name = m.group(1)
        # a `where` ("round 2, trick 5") and sinople's `also` have no parentheses but "seat(s)": a
        # reason may ("(R32)"), so "… (R32) (turn 3)" splits before the last parenthesis
        body = r"(?:[^()]|\(s\))+?" if name in ("where", "also") else ".+?"
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>{body})")
        seen.add(name)
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.DOTALL)


@lru_cache(maxsize=None)
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The templates, the most literal first (a tie goes to the more specific wording)."""
    def literal(t: str) -> int:
        return sum(len(lit) for lit, *_rest in Formatter().parse(t))
    unique = dict.fromkeys(TEMPLATES)
    return tuple((t, _pattern(t)) for t in sorted(unique, key=literal, reverse=True))


def template_of(text: str) -> tuple[str, dict[str, str]] | None:
    """The template `text` was made from and its fields, or None."""
    for template, pattern in _compiled():
        m = pattern.fullmatch(text)
        if m:
            return template, m.groupdict()
    return None


def say(text: object, depth: int = 0) -> str:
    """`text` (an English sentence from below the front ends) in the interface's language; as it
    came when it is English already or no template matches."""
    if isinstance(text, BaseException) and len(text.args) == 1 and isinstance(text.args[0], str):
        text = text.args[0]  # a KeyError's str() would quote it
    sentence = str(text)
    if language() == "en" or depth > 4 or len(sentence) > 2000:
        return sentence
    found = template_of(sentence)
    if found is None:
        return sentence
    template, fields = found
    said = {k: say(v, depth + 1) for k, v in fields.items()}
    try:
        return _(template).format(**said)
    except (KeyError, IndexError, ValueError):  # a translation that lost a field: the English
        return sentence


__all__ = ["TEMPLATES", "say", "template_of"]
