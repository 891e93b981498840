"""The bank project as its author works on it: creating it, its topics, its settings and its files.

``init`` (`bank init`: a new project from ``starter/``), ``topics`` (`bank migrate`, `bank
topic new`/`rename`), ``authoring`` (question and topic files written in round-trip YAML: `bank
new`, imports), ``settings`` (``bank.toml``), ``schemas`` (`bank schema`: the JSON Schemas of
the content files) and ``stats`` (`bank stats`: what the bank holds).
"""
