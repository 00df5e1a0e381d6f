"""What a researcher reads: the results dashboard, its charts, and the exports of
answers, codebook and estimates. Interfaces import it; it reads surveys.models,
estimation.runs' saved rows and the pure core, and never writes a survey."""
