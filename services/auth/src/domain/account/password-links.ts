// The links of the e-mails that let staff set a password: both open the same page, which reads the token.

/** A reset link: spec §2 has the password change page take the token from the query string. */
export function passwordLink(publicUrl: string, secret: string): string {
  const url = new URL('/company/password/change', publicUrl);
  url.searchParams.set('token', secret);
  return url.toString();
}

/**
 * An invitation link to the same page. The spec does not place its token, so it rides in the fragment: browsers
 * never send it, so neither an access log nor a proxy on the way sees it.
 */
export function invitationLink(publicUrl: string, secret: string): string {
  const url = new URL('/company/password/change', publicUrl);
  url.hash = new URLSearchParams({ token: secret }).toString();
  return url.toString();
}
