"""``qg-studio batch``: a whole corpus of stories into a FairytaleQA-layout dataset.

One story is one call of :func:`qg_studio.batch.story.process_story` (read → section →
generate and answer → labelled QA rows); workers (a local process pool or Ray actors)
load the models once and call it; the driver alone writes files and the manifest, so a
run killed at any point resumes where it stopped and never writes a story twice.

    corpus.py    which stories a corpus holds, each with a stable key and output name
    story.py     the per-story function and the models a worker loads once
    manifest.py  the SQLite record of what is done or failed, and with which settings
    output.py    atomic per-story files, orphan clean-up, story_meta.csv
    local.py     inline and process-pool backends; ray_backend.py the Ray one
    runner.py    the run: resume, progress bar, summary
"""
