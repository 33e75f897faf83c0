"""Fine-tuning recipes, one module per model (run through ``qg-studio train``)."""
