import { render } from '@testing-library/react';
import { reportError, setErrorReporter, useErrorReport } from './error-reporting';

function Boundary({ error }: { error: unknown }) {
  useErrorReport(error);
  return null;
}

describe('error reporting through the shared @whistle/ui', () => {
  it('when errors are caught before the shell decides, then they wait and go once its reporter is set; when reporting is off, nothing is kept', () => {
    const early = new Error('caught before the SDK loaded');
    reportError(early);
    const captured: unknown[] = [];
    setErrorReporter((error) => captured.push(error));
    expect(captured).toEqual([early]);

    const later = new Error('caught afterwards');
    render(<Boundary error={later} />);
    expect(captured).toEqual([early, later]);

    setErrorReporter(null);
    reportError(new Error('reporting is off'));
    setErrorReporter((error) => captured.push(error));
    expect(captured).toEqual([early, later]);
  });
});
