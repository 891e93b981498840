"""The gettext layer: template extraction, catalog merging, status, verification, localization.

``pofile`` reads and writes the text of catalogs, ``catalog`` reads and checks a catalog file;
extraction, merging, status, verification and localization work on what they return.

English is the source language: the template (`aistack.pot`) holds the English texts, and one
catalog per target language (`fr.po`, `nl.po`) holds their translations. Every entry is keyed
by a stable ``msgctxt`` naming the field (``q003.option.c``), never by fuzzy text matching.
"""

TEMPLATE_NAME = "aistack.pot"
SOURCE_LANGUAGE = "en"
