"""Conversion of a bank to QTI 3.0 content packages (one zip per language)."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Mapping

from ..model import Bank
from ..options import ExportOptions
from ._qti import Dialect, export_packages

NAME = "qti30"

DIALECT = Dialect(
    namespace="http://www.imsglobal.org/xsd/imsqtiasi_v3p0",
    schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
    manifest_namespace="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
    manifest_schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd",
    schema_name="QTI Package",
    schema_version="3.0.0",
    item_type="imsqti_item_xmlv3p0",
    test_type="imsqti_test_xmlv3p0",
    kebab=True,
)


def export(banks: Mapping[str, Bank], options: ExportOptions) -> dict[PurePosixPath, bytes]:
    """`aistack-<lang>.zip` per language: manifest, assessment test and one item per question."""
    return export_packages(banks, options, DIALECT)
