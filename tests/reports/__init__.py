"""Tests of the analytics and pages (``reports``): reports, comparisons, duplicate deals."""
