"""The web layer: one blueprint module per screen family, the forms that read typed text, and
the helpers that turn a service's answer or refusal into a page (htmx part or full page)."""
