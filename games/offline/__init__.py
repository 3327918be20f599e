"""Matches played with no connection in the installed app (``engine.solo`` under Pyodide), uploaded as their
replay when the network is back, verified by the engine's verifier and stored as unrated matches."""
