"""The one text layer: the spaCy pipeline (:mod:`.parse`), the house sentence rule
(:mod:`.sentences`), words, stop words and stems (:mod:`.words`), and the best evidence
sentence for a query (:mod:`.evidence`). Every module asks here rather than cutting
sentences or words its own way; the language data these read live in ``lang/en/``.
"""
