"""The Spielberichtsbogen of an evening: its content as data (JSON, CSV) and as an A4 PDF page."""
