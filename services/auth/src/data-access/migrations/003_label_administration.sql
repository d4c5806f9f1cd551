-- Default assignees of a reporting label's new reports (spec: category user_profiles).
create table auth.category_assignee (
  category_id uuid not null references auth.category (id) on delete cascade,
  user_id uuid not null references auth.user_profile (id) on delete cascade,
  primary key (category_id, user_id)
);
create index category_assignee_user_idx on auth.category_assignee (user_id);

-- Labels and locations some case has carried (from incident events): deleted ones are deactivated instead.
create table auth.label_in_use (
  label_id uuid primary key,
  company_id uuid not null references auth.company (id) on delete cascade
);
