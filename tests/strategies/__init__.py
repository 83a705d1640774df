"""Tests of the strategies (``strategies``): both engines play them alike, users' plugins."""
