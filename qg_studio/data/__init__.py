"""Dataset readers and writers (the FairytaleQA layout and the formats derived from it)."""
