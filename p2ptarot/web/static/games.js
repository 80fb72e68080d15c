// Per-game drawing beyond the generic screen (hand, piles, moves): GAME_SCREENS[game](screen, box)
// draws into the #gamebox element under the piles, e.g. a board or a form for a composed move.
"use strict";
const GAME_SCREENS = {};
