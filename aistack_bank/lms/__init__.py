"""What LMS importers do with our exports: models of their readers, and `bank lint --target`.

:mod:`.models` re-implements, in a few lines each, the parts of Moodle's and Canvas's importers
that decide what survives an import (field lengths, idnumber uniqueness, GIFT comments,
Canvas's feedback rules); :mod:`.lint` reports, before upload, what they would lose.
"""
