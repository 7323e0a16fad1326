"""The tournament director's hub: its SQLite store, the intake of results, its commands."""
