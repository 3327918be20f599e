"""Friends: following people, the friends list (who is online now and what they play), a challenge (a private
table with the friend invited, told by a notice and a push) and blocking. Above tables and notices: a challenge
opens a table and sends a notice. The block itself is an account's (``accounts.models.Block``), since every door
below (tables, table talk, quick match) must ask it."""
