"""A finished game's shared result, in one place: its words (text.py), the picture drawn from them
(picture.py) with its fonts (fonts.py, the files in font_files/), the play BG Stats imports
(bgstats.py), and what a page offers to share and the picture's answer (share.py)."""
