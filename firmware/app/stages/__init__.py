"""The stages and overlays: each step of the game flow with its buttons and its screen. They
stand on the session (:mod:`firmware.app.session`) and never import the router or the shell."""
