"""The gettext layer: template extraction, catalog merging, status, verification, localization.

English is the source language: the template (`aistack.pot`) holds the English texts, and one
catalog per target language (`fr.po`, `nl.po`) holds their translations. Every entry is keyed
by a stable ``msgctxt`` naming the field (``q003.option.c``), never by fuzzy text matching.
"""

TEMPLATE_NAME = "aistack.pot"
SOURCE_LANGUAGE = "en"
