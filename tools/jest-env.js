// Every test file: quiet logs unless LOG_LEVEL asks for more.
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
