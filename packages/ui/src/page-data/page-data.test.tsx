import { Component, useState, type ReactNode } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useAction } from './use-action';
import { useLoad, type LoadOptions } from './use-load';

/** What a route's error boundary does: shows the error thrown while rendering. */
class Boundary extends Component<{ children: ReactNode }, { error?: unknown }> {
  override state: { error?: unknown } = {};
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p role="alert">boundary: {String(this.state.error)}</p> : this.props.children;
  }
}

/** A request the test answers by hand, with the signal the hook gave it. */
interface Pending {
  key: string;
  signal: AbortSignal;
  resolve(value: string): void;
  reject(error: unknown): void;
}

function loader() {
  const requests: Pending[] = [];
  const load = (key: string) => (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => requests.push({ key, signal, resolve, reject }));
  return { requests, load };
}

function Page({
  load,
  options,
}: {
  load: (key: string) => (signal: AbortSignal) => Promise<string>;
  options?: LoadOptions;
}) {
  const [key, setKey] = useState('a');
  const { data, error, loading, reload, replace } = useLoad((signal) => load(key)(signal), [load, key], options);
  return (
    <>
      <p>{loading ? 'loading' : 'answered'}</p>
      <p>data: {data ?? '-'}</p>
      <p>error: {error ? String(error) : '-'}</p>
      <button onClick={() => setKey('b')}>b</button>
      <button onClick={() => void reload()}>reload</button>
      <button onClick={() => replace('saved')}>replace</button>
    </>
  );
}

const answer = async (request: Pending | undefined, value: string) => act(async () => request!.resolve(value));
const refuse = async (request: Pending | undefined, error: unknown) => act(async () => request!.reject(error));

describe('useLoad', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('when the page opens, then it loads once; the answer replaces the loading state', async () => {
    const { requests, load } = loader();
    render(<Page load={load} />);
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(requests.map((request) => request.key)).toEqual(['a']);
    await answer(requests[0], 'A');
    expect(screen.getByText('data: A')).toBeInTheDocument();
    expect(screen.getByText('answered')).toBeInTheDocument();
  });

  it('when the dependencies change, then the earlier request is aborted and its answer never shows as the new one', async () => {
    const { requests, load } = loader();
    render(<Page load={load} />);
    fireEvent.click(screen.getByText('b'));
    expect(requests.map((request) => request.key)).toEqual(['a', 'b']);
    expect(requests[0]!.signal.aborted).toBe(true);
    await answer(requests[0], 'A');
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(screen.getByText('data: -')).toBeInTheDocument();
    await answer(requests[1], 'B');
    expect(screen.getByText('data: B')).toBeInTheDocument();
  });

  it('when an older request answers after a newer one, then the newer answer stays', async () => {
    const { requests, load } = loader();
    render(<Page load={load} />);
    await answer(requests[0], 'A');
    fireEvent.click(screen.getByText('reload'));
    fireEvent.click(screen.getByText('reload'));
    await answer(requests[2], 'newest');
    await answer(requests[1], 'older');
    expect(screen.getByText('data: newest')).toBeInTheDocument();
  });

  it('when the page keeps the previous answer, then it stays on screen while the next one comes', async () => {
    const { requests, load } = loader();
    render(<Page load={load} options={{ keepPrevious: true }} />);
    await answer(requests[0], 'A');
    fireEvent.click(screen.getByText('b'));
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(screen.getByText('data: A')).toBeInTheDocument();
    await answer(requests[1], 'B');
    expect(screen.getByText('data: B')).toBeInTheDocument();
  });

  it('when the page keeps the previous answer and that was a failure, then the failure stays until the next answer', async () => {
    const { requests, load } = loader();
    render(<Page load={load} options={{ keepPrevious: true, shows: () => true }} />);
    await refuse(requests[0], 'refused');
    fireEvent.click(screen.getByText('b'));
    expect(screen.getByText('error: refused')).toBeInTheDocument();
    await answer(requests[1], 'B');
    expect(screen.getByText('error: -')).toBeInTheDocument();
    expect(screen.getByText('data: B')).toBeInTheDocument();
  });

  it('when a failure is one the page shows, then it is handed back; after a reload the data stays beside it', async () => {
    const { requests, load } = loader();
    render(<Page load={load} options={{ shows: (error) => error === 'offline' }} />);
    await refuse(requests[0], 'offline');
    expect(screen.getByText('error: offline')).toBeInTheDocument();
    expect(screen.getByText('answered')).toBeInTheDocument();
    fireEvent.click(screen.getByText('reload'));
    await answer(requests[1], 'A');
    expect(screen.getByText('error: -')).toBeInTheDocument();
    fireEvent.click(screen.getByText('reload'));
    await refuse(requests[2], 'offline');
    expect(screen.getByText('error: offline')).toBeInTheDocument();
    expect(screen.getByText('data: A')).toBeInTheDocument();
  });

  it('when a failure is unexpected, then it is thrown to the error boundary', async () => {
    const { requests, load } = loader();
    render(
      <Boundary>
        <Page load={load} options={{ shows: (error) => error === 'offline' }} />
      </Boundary>,
    );
    await refuse(requests[0], 'server down');
    expect(screen.getByRole('alert')).toHaveTextContent('boundary: server down');
  });

  it('when a save answers the new data, then it replaces the shown data and a late request does not undo it', async () => {
    const { requests, load } = loader();
    render(<Page load={load} />);
    fireEvent.click(screen.getByText('replace'));
    expect(screen.getByText('data: saved')).toBeInTheDocument();
    await answer(requests[0], 'stale');
    expect(screen.getByText('data: saved')).toBeInTheDocument();
  });
});

function Form({
  work,
  recover,
  leaves,
}: {
  work: () => Promise<unknown>;
  recover?(error: unknown): boolean;
  leaves?: boolean;
}) {
  const action = useAction();
  const [outcome, setOutcome] = useState('-');
  return (
    <>
      <p>{action.busy ? 'busy' : 'idle'}</p>
      <p>{action.isBusy('row-1') ? 'row busy' : 'row idle'}</p>
      <p>outcome: {outcome}</p>
      <button
        onClick={() => void action.run(work, { recover, leaves }).then((ok) => setOutcome(ok ? 'done' : 'failed'))}
      >
        save
      </button>
      <button onClick={() => void action.run(work, { key: 'row-1' })}>row</button>
    </>
  );
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('useAction', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('when the work runs, then the page is busy until it ends, and only the row that runs it is', async () => {
    const pending = deferred();
    render(<Form work={() => pending.promise} />);
    fireEvent.click(screen.getByText('row'));
    expect(screen.getByText('busy')).toBeInTheDocument();
    expect(screen.getByText('row busy')).toBeInTheDocument();
    await act(async () => pending.resolve());
    expect(screen.getByText('idle')).toBeInTheDocument();
  });

  it('when the work leaves the page, then it stays busy after it succeeded', async () => {
    render(<Form work={async () => undefined} leaves />);
    await act(async () => fireEvent.click(screen.getByText('save')));
    expect(screen.getByText('outcome: done')).toBeInTheDocument();
    expect(screen.getByText('busy')).toBeInTheDocument();
  });

  it('when the page recovers from the failure, then it is not busy any more and no error boundary shows', async () => {
    const recover = jest.fn(() => true);
    render(
      <Boundary>
        <Form work={() => Promise.reject(new Error('field error'))} recover={recover} leaves />
      </Boundary>,
    );
    await act(async () => fireEvent.click(screen.getByText('save')));
    expect(recover).toHaveBeenCalledWith(new Error('field error'));
    expect(screen.getByText('outcome: failed')).toBeInTheDocument();
    expect(screen.getByText('idle')).toBeInTheDocument();
  });

  it('when the failure is unexpected, then it is thrown to the error boundary', async () => {
    render(
      <Boundary>
        <Form work={() => Promise.reject(new Error('server down'))} recover={() => false} />
      </Boundary>,
    );
    await act(async () => fireEvent.click(screen.getByText('save')));
    expect(screen.getByRole('alert')).toHaveTextContent('boundary: Error: server down');
  });
});
