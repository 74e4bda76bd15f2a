package ledger

import "testing"

// TestLedger49KeepsSecretsBesideExpansions (review rl48): ordinary secret shapes main hid whole
// before ledger47 that ledger48 recorded in part. An expansion in a data program's argument made
// the rest of the command a script, read blind; a key that merely contained "script" (description)
// named one; and any trap action read the rest of the text blind.
func TestLedger49KeepsSecretsBesideExpansions(t *testing.T) {
	expectHidden(t, []hiddenRow{
		// An argument with an expansion bash makes (a namespace, a user, a bearer token, a mount
		// from $PWD) is no data itself; the words after it stay data.
		{`kubectl -n "$NS" create secret generic db --from-literal='password=a;w'`, ";w"},
		{`kubectl create secret generic db --from-literal="user=$USER" --from-literal='password=a;w'`, ";w"},
		{`docker login -u "$USER" -p 'a;b' r.io`, ";b"},
		{`curl -u "$USER:pa;ss" https://x`, ";ss"},
		{`curl -H "Authorization: Bearer $TOKEN" -d '{"password":"p;w"}' https://x`, ";w"},
		{`curl -d "{\"user\":\"$USER\",\"password\":\"p;w\"}" https://x`, ";w"},
		{`docker run -v "$PWD:/app" -e 'POSTGRES_PASSWORD=a;w' postgres`, ";w"},
		{`helm install x c -n "$NS" --set 'db.password=a;w'`, ";w"},
		{`helm install x c --set "image.tag=$TAG" --set 'db.password=a;w'`, ";w"},
		{`aws secretsmanager create-secret --name "$NAME" --secret-string '{"password":"p;w"}'`, ";w"},

		// A key names a script only by a part of its own (description and subscriptionId merely
		// hold the letters of "script").
		{`curl -d '{"description":"db creds","password":"p;w"}' https://x`, ";w"},
		{`aws secretsmanager create-secret --name x --secret-string '{"description":"db","password":"p;w"}'`, ";w"},
		{`kubectl patch secret x -p '{"metadata":{"annotations":{"description":"db"}},"stringData":{"password":"p;w"}}'`, ";w"},
		{`kubectl create secret generic db --from-literal=description=x --from-literal='password=a;w'`, ";w"},
		{`helm install x c --set 'subscription=s,db.password=a;w'`, ";w"},
		{`az deployment group create -g g -f t.json --parameters subscriptionId=s adminPassword='p;w'`, ";w"},
		{`docker run -e SUBSCRIPTION_ID=s -e POSTGRES_PASSWORD='a;w' postgres`, ";w"},
		{`gcloud compute instances create v --metadata=description=x,db-password='p;w'`, ";w"},

		// A trap whose action is a command's name (a function the lexer has read) re-reads nothing.
		{"#!/bin/bash\nset -e\ntrap cleanup EXIT\nexport DB_PASSWORD='p;ss'\n", ";ss"},
	})
	// what the narrowing keeps: a computed key, a key that names a script, a trap's code
	expectKept(t, []keptRow{
		{`kubectl patch deploy x -p "{\"spec\":{\"$c\":[\"sh\",\"-c\",\"PASSWORD=x;rm -rf /data\"]}}"`, "rm -rf /data"},
		{`curl -d '{"startupScript":"PASSWORD=x;rm -rf /data"}' https://x`, "rm -rf /data"},
		{`gcloud compute instances create v --metadata=startup-script='mysql -p"X";rm -rf /data'`, "rm -rf /data"},
		{`aws ec2 run-instances --cli-input-json '{"UserData":"mysql -p\"X\";rm -rf /data"}'`, "rm -rf /data"},
		{`kubectl patch deploy x -p '{"spec":{"containers":[{"name":"x","COMMANDS":["sh","-c","mysql -p\"X\";rm -rf /data"]}]}}'`, "rm -rf /data"},
		{`aws ecs run-task --cli-input-yaml 'runcmd: [sh, -c, "mysql -p\"X\";rm -rf /data"]'`, "rm -rf /data"},
	})
}
