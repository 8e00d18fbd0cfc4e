"""The `cardrogue` command line: commands that need no UI import no Textual."""
