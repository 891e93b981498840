"""Conversion of a bank to QTI 2.1 content packages (one zip per language)."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Mapping

from ..model import Bank
from ..options import ExportOptions
from ._qti import Dialect, export_packages

NAME = "qti21"

DIALECT = Dialect(
    namespace="http://www.imsglobal.org/xsd/imsqti_v2p1",
    schema_location="http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd",
    manifest_namespace="http://www.imsglobal.org/xsd/imscp_v1p1",
    manifest_schema_location="http://www.imsglobal.org/xsd/qti/qtiv2p1/qtiv2p1_imscpv1p2_v1p0.xsd",
    schema_name="QTIv2.1 Package",
    schema_version="1.0.0",
    item_type="imsqti_item_xmlv2p1",
    test_type="imsqti_test_xmlv2p1",
    kebab=False,
)


def export(banks: Mapping[str, Bank], options: ExportOptions) -> dict[PurePosixPath, bytes]:
    """`aistack-<lang>.zip` per language: manifest, assessment test and one item per question."""
    return export_packages(banks, options, DIALECT)
