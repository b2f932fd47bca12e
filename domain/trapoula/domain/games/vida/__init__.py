"""Vida (Βίδα): rules/vida.md -- a Belote-family partnership trick-taking game for four players."""
