"""The organiser panel's match pages: the table board and one match's control."""
