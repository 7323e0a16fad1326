"""Tournament play: a table's device and the hub speak over an MQTT broker (docs/tournament.md)."""
