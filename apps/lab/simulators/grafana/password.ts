/**
 * Grafana's password rules (pkg/services/user/password.go ValidatePassword): at least 4 characters;
 * with `[auth.basic] password_policy = true`, at least 12 and an upper-case letter, a lower-case
 * letter, a number and a symbol (anything neither letter nor number). Refusals are 400s with the
 * public messages of ErrPasswordTooShort and ErrPasswordPolicyInfringe.
 */
export function passwordRefusal(password: string, strongPolicy: boolean): string | undefined {
  const chars = [...password];
  if (!strongPolicy) return chars.length < 4 ? 'New password is too short' : undefined;
  if (chars.length < 12) return 'New password is too short';
  const has = (re: RegExp) => chars.some((ch) => re.test(ch));
  const ok = has(/\p{Lu}/u) && has(/\p{Ll}/u) && has(/\p{N}/u) && has(/[^\p{L}\p{N}]/u);
  return ok ? undefined : "New password doesn't comply with the password policy";
}
