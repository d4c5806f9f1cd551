-- The message a case was closed with (PUT final_message): the reporter's page shows it as how the case ended.

alter table incident.message add column final boolean not null default false;
