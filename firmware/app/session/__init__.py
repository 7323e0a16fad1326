"""The session layer, below the screens: the game, its computer players, the journal, the setup
file, and the moments that say what comes next. It imports no stage and no router."""
