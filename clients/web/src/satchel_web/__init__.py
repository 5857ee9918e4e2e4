"""satchel-web: the five Satchel apps as a local web app, over a bridge that spawns satchel."""
