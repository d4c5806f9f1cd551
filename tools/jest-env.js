// Every test run: no telemetry from Pact's native library, quiet logs unless asked for.
process.env.PACT_DO_NOT_TRACK = 'true';
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
