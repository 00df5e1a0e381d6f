"""Designing a survey: create and edit it and its questions, choose each design,
preview, publish, close and reopen. Its views are interfaces; its services,
selectors and design sentences may be imported by any interface, never by models;
each kind's own rules and sentences are in surveys/kinds/."""
