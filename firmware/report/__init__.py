"""What the device and the hub print: the Spielberichtsbogen as data (JSON, CSV) and as an A4
page, the hub's standings, one CSV writer and one PDF drawer for both."""
