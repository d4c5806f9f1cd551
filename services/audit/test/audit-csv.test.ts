import { randomUUID } from 'node:crypto';
import type { AuditLogEntry } from '@whistle/contracts';
import { auditCsv } from '../src/entry-points/http/audit-csv';

const entry = (name: string): AuditLogEntry => ({
  uuid: randomUUID(),
  action: 'user-updated',
  success: true,
  table_identifier: 'user-profile',
  object_uuid: randomUUID(),
  incident_uuid: null,
  actor: { type: 'STAFF', uuid: randomUUID(), name },
  occurred_at: '2026-03-04T05:06:07.000Z',
});

/** The CSV text of these entries, as the export streams it. */
async function csvOf(entries: AuditLogEntry[]): Promise<string> {
  const csv = auditCsv();
  const chunks: string[] = [];
  csv.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const ended = new Promise((resolve, reject) => csv.on('end', resolve).on('error', reject));
  for (const one of entries) csv.write(auditCsv.row(one));
  csv.end();
  await ended;
  return chunks.join('');
}

describe('audit CSV', () => {
  test('when a staff member’s name starts like a formula, then its cell starts with a quote so a spreadsheet shows it as text', async () => {
    // A staff member chooses their own full name; the export puts it in the Actor column (CSV injection, OWASP).
    const names = ['=HYPERLINK("https://evil.example","open")', '+1+2', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'];
    const lines = (await csvOf(names.map(entry))).split('\n');
    expect(lines[0]).toBe('Date (UTC),Action,Result,Actor,Actor type,Object type,Object,Case');
    expect(lines[1]).toContain(',user-updated,success,"\'=HYPERLINK(""https://evil.example"",""open"")",STAFF,');
    expect(lines[2]).toContain(",success,'+1+2,STAFF,");
    expect(lines[3]).toContain(",success,'-2+3,STAFF,");
    expect(lines[4]).toContain(",success,'@SUM(A1),STAFF,");
    expect(lines[5]).toContain(",success,'\tcmd,STAFF,");
    // A CR inside a value is quoted too: the cell holds '\rcmd.
    expect(lines[6]).toContain(',success,"\'\rcmd",STAFF,');
  });

  test('when a name merely contains a sign, then it is written as it is', async () => {
    const lines = (await csvOf([entry('Jean-Luc Picard'), entry('a=b')])).split('\n');
    expect(lines[1]).toContain(',success,Jean-Luc Picard,STAFF,');
    expect(lines[2]).toContain(',success,a=b,STAFF,');
  });
});
