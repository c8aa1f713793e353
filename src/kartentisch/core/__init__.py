"""The game protocol every kartentisch game implements (see ``protocol``)."""
