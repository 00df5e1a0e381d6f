"""The respondent's side: the survey page (in the survey's language), the
submission service and the one statement that stores a response. Interfaces (views, the public API) import it;
it imports only surveys.models, estimation.runs' scheduling and the pure core."""
