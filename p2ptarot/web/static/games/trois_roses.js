// Les trois roses (present/trois_roses.py): drawn as a trick table (games/tricks.js)
"use strict";
GAME_SCREENS["trois-roses"] = trickTable;
