"""Arcanum (spec/games/arcanum.md): a pure rules engine for 3–5 players.

Package layout mirrors the rules: rules (§2 components, §3.1, R45, §10 variants), board and
board.json (§5), setup (§3.2), turn (§4), minor (§6.1–6.3, §6.6), locations (§6.4), tracks (§6.5),
scoring (§7), majors (§8), view (§9), state claims (§10). Importing it registers the game.
"""

from p2ptarot.engine import GameInfo, register

from .rules import OPTIONS, STANDARD, catalogue
from .state import ArcanumState

register(GameInfo(name="arcanum", title="Arcanum", min_players=3, max_players=5,
                  variants=catalogue(), default_variant=STANDARD.name,
                  decks=("tarot-78/arcanum",), state=ArcanumState, options=OPTIONS,
                  summaries={"fr": {
                      "STANDARD": "les décisions du projet (spec/games/arcanum.md, règles R1–R48)",
                      "FIRST-GAME": "R45 : aucune majeure au tour 1 ; une distribuée au tour 3",
                      "NO-MAJORS": "R45 : les majeures restent hors du jeu",
                      "ENGLISH-TEXT": "le texte anglais : l'Étoile +2 PV, la Lune fait piocher 1",
                      "HIDDEN-WHEEL": "§10 wheelHidesKind : la nature des cartes passées par la Roue "
                                      "reste privée"}}))
