// Sinople (present/sinople.py): drawn as a trick table (games/tricks.js)
"use strict";
GAME_SCREENS.sinople = trickTable;
