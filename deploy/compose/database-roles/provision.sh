set -eu
for service in auth automation connections gateway media posts publisher webhooks; do
  url=$(printenv "$(echo "$service" | tr a-z A-Z)_DATABASE_URL")
  password=$(printf '%s' "$url" | sed -E 's#^[^:]+://[^:@/]*:([^@]*)@.*$#\1#')
  psql "$DATABASE_ADMIN_URL" -q -v ON_ERROR_STOP=1 -v service="$service" -v role="postbus_$service" -v password="$password" -f "$(dirname "$0")/provision.sql"
  echo "postbus_$service owns schema $service"
done
