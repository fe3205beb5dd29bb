"""What the faces share, below all of them: live responses and ETags, the visible tournament,
the panel's base views and its refusals in words, the scoreboard's pieces, the DRF permission
classes and view mixins, the audit log's API page and the admin's base classes."""
