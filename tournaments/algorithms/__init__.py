"""Pure tournament algorithms: plain functions over plain data, no Django imports.

Brackets (``brackets``, ``groups``, ``seeding``, ``standings``) identify players by
seed number only; the Django layer maps seeds to people and writes one Match row
per ``MatchSpec``.
"""
