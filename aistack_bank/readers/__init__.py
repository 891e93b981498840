"""Readers: one module per LMS file format, shared by the importers and `bank lint`'s LMS models.

A reader turns a file into plain, located records (a question's type, its texts as the file
holds them, its answers with their fractions, feedback, line numbers) and refuses a file it
cannot read with a located error; it knows nothing of the bank's model. The importers
(:mod:`aistack_bank.importers`) map the records to question kinds; the LMS models
(:mod:`aistack_bank.lms.models`) to what Moodle or Canvas does with them.

- :mod:`.xml`: safe XML parsing (no DTD, no entities, located refusals), names without
  namespaces, children, descendants, the text of an element, how deep elements nest;
- :mod:`.moodle_xml`: Moodle XML question files;
- :mod:`.gift`: GIFT text (its encoding, Moodle's escapes, blocks with their lines and comments);
- :mod:`.qti`: QTI names (QTI 3's ``qti-`` kebab case read as QTI 2's camel case), attributes,
  and QTI 1.2's metadata fields.
"""
