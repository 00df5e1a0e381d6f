"""Cursor pagination: stable pages while responses and surveys keep arriving."""

from __future__ import annotations

from rest_framework.pagination import CursorPagination


class NewestFirst(CursorPagination):
    ordering = "-id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class InPosition(NewestFirst):
    """Questions in the order respondents see them."""

    ordering = "position"


class InOrderAdded(NewestFirst):
    """A survey's members in the order they joined, as the team page lists them."""

    ordering = "id"
