"""What the app stands on: settings, extensions, devices, rate limits, languages, static files,
the installed app, live updates, security headers, the start-up banner."""
