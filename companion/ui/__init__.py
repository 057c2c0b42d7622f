"""The Kivy kiosk: the only package that imports Kivy (lazily: import ``companion.ui.app`` only
once the window settings are made with ``companion.ui.window.configure_window``)."""
