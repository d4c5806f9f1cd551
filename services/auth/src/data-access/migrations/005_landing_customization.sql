-- The landing page's logo: `logo` holds the sha256 (hex) of the stored image, which names its object
-- (company/{id}/logo/{sha256}) and its URL; the type was read from the image's own bytes at upload.
alter table auth.company
  add column logo_content_type text
    check (logo_content_type in ('image/png', 'image/jpeg', 'image/svg+xml')),
  add constraint company_logo_complete check ((logo is null) = (logo_content_type is null));
