"""The editor's widgets, one module per area of the screen."""
