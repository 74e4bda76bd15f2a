package safety

// fourteenthCatalogue holds the fourteenth engine review's rows. Azure's clients that print an
// app's or a container's environment with its plain values: az containerapp show|list (and a
// revision's, a job's or a job execution's), az container show|list and az spring app
// [deployment] show|list print each container's env, a value beside every name not kept as a
// secret, as docker inspect does; -o table and a --query that selects fields holding no
// environment stay admitted. Ansible inventories that run as scripts where the reading did not
// look: a directory inventory into which the line wrote a file (each executable file in it is run,
// each other one parsed by the plugin it names), an inventory named by ANSIBLE_INVENTORY (or the
// older ANSIBLE_HOSTS), prefixed or exported, and -i's long spelling --inventory-file and its
// abbreviations (--inven), which the reading did not know as -i.
func fourteenthCatalogue() []classCase {
	sh := shCall
	envPrint := asked(dc + "print-environment-service")
	opaque := asked(RuleOpaqueCode)
	const (
		azEnv     = "an Azure client prints an app's environment with its values"
		inventory = "an ansible inventory runs code the reading did not see"
	)
	return []classCase{
		{azEnv, "az containerapp show", sh(`az containerapp show -n web -g rg`), envPrint, sh(`az containerapp show -n web -g rg -o table`), false},
		{azEnv, "az containerapp list", sh(`az containerapp list -g rg`), envPrint, sh(`az containerapp list -g rg --query '[].name' -o tsv`), false},
		{azEnv, "az containerapp list as YAML", sh(`az containerapp list --output yaml`), envPrint, sh(`az containerapp list --output table`), false},
		{azEnv, "az containerapp revision show", sh(`az containerapp revision show -n web -g rg --revision web--r1`), envPrint,
			sh(`az containerapp revision list -n web -g rg --query '[].{name:name, active:properties.active}' -o table`), false},
		{azEnv, "az containerapp job show", sh(`az containerapp job show -n nightly -g rg`), envPrint, sh(`az containerapp job list -g rg -o table`), false},
		{azEnv, "az containerapp job execution show", sh(`az containerapp job execution show -n nightly -g rg --job-execution-name e1`), envPrint,
			sh(`az containerapp job execution list -n nightly -g rg --query '[].properties.status'`), false},
		{azEnv, "az container show", sh(`az container show --name web --resource-group rg`), envPrint, sh(`az container show --name web --resource-group rg --query instanceView.state`), false},
		{azEnv, "az spring app deployment show", sh(`az spring app deployment show -n green --app api -s svc -g rg`), envPrint, sh(`az spring app list -s svc -g rg -o table`), false},
		{azEnv, "a query of the environment", sh(`az containerapp show -n web -g rg --query "properties.template.containers[0].env[].value"`), envPrint,
			sh(`az containerapp show -n web -g rg --query properties.template.containers[0].image`), false},
		{azEnv, "a query of a whole container", sh(`az containerapp show -n web -g rg --query 'properties.template.containers[0]'`), envPrint,
			sh(`az containerapp show -n web -g rg --query 'properties.template.containers[0].resources'`), false},
		{azEnv, "a query of the template", sh(`az containerapp show -n web -g rg --query '{t: properties.template, n: name}'`), envPrint,
			sh(`az containerapp show -n web -g rg --query '{fqdn: properties.configuration.ingress.fqdn, n: name}'`), false},
		{azEnv, "a query of whole objects, filtered", sh(`az containerapp list --query "[?name=='web']"`), envPrint, sh(`az containerapp list --query "[?name=='web'].id"`), false},
		{azEnv, "a query by a wildcard", sh(`az containerapp show -n web -g rg --query 'properties.template.containers[].*'`), envPrint,
			sh(`az containerapp show -n web -g rg --query 'properties.template.containers[].name'`), false},
		{azEnv, "a query by an escaped name", sh(`az containerapp show -n web -g rg --query 'properties.template.containers[0]."\u0065nv"'`), envPrint,
			sh(`az containerapp show -n web -g rg --query 'properties.latestRevisionName'`), false},
		{azEnv, "a query of the whole object", sh(`az containerapp show -n web -g rg --query @ -o table`), envPrint, sh(`az containerapp show -n web -g rg --query location`), false},
		{azEnv, "a computed query", sh(`az containerapp show -n web -g rg --query "$Q"`), envPrint, sh(`az containerapp show -n web -g rg --query name -o tsv`), false},
		{azEnv, "a computed output", sh(`az containerapp list -o "$FMT"`), envPrint, sh(`az containerapp list -otable`), false},
		{azEnv, "an abbreviated query beside a table", sh(`az containerapp show -n web -g rg -o table --que properties.template`), envPrint,
			sh(`az containerapp show -n web -g rg --output=table`), false},
		{azEnv, "a names-only table, then the environment", sh(`az containerapp list -o table && az containerapp show -n web -g rg -o json`), envPrint,
			sh(`az containerapp list -o table && az containerapp secret list -n web -g rg`), false},
		{inventory, "a script written into an inventory directory", sh(`echo 'import os; os.system("id")' > inventory/x.py && ansible all -i inventory/ -m ping`), opaque,
			sh(`echo 'import os' > tools/x.py && ansible all -i inventory/ -m ping`), false},
		{inventory, "a directory inventory named without its slash", sh(`printf '#!/bin/sh\nid\n' > inventory/hosts && chmod +x inventory/hosts; ansible all -i inventory -m ping`), opaque,
			sh(`mkdir -p inventory && ansible all -i inventory -m ping`), false},
		{inventory, "a file written from inside the inventory directory", sh(`cd inventory && echo x > gen && cd .. && ansible all -i inventory -m ping`), opaque,
			sh(`echo x > inventory.bak && ansible all -i inventory -m ping`), false},
		{inventory, "a script inventory by ANSIBLE_INVENTORY", sh(`ANSIBLE_INVENTORY=./inv.py ansible all -m ping`), opaque,
			sh(`export ANSIBLE_INVENTORY=inventory/hosts.yml; ansible all -m ping`), false},
		{inventory, "a script inventory by an exported ANSIBLE_INVENTORY", sh(`export ANSIBLE_INVENTORY=hosts.yml,inv.sh; ansible all -m ping`), opaque,
			sh(`export ANSIBLE_INVENTORY=hosts.yml,prod.ini; ansible all -m ping`), false},
		{inventory, "a written inventory by ANSIBLE_HOSTS", sh(`echo x > h && export ANSIBLE_HOSTS=h; ansible all -m ping`), opaque,
			sh(`export ANSIBLE_HOSTS=hosts; ansible all -m ping`), false},
		{inventory, "a computed ANSIBLE_INVENTORY", sh(`export ANSIBLE_INVENTORY="$INV"; ansible all -m ping`), opaque, sh(`export ANSIBLE_FORKS=10; ansible all -m ping`), false},
		{inventory, "--inventory-file", sh(`ansible all --inventory-file=inv.py -m ping`), opaque, sh(`ansible all --inventory-file inventory.ini -m ping`), false},
		{inventory, "--inven, an abbreviation", sh(`ansible all --inven ./hosts.sh -m ping`), opaque, sh(`ansible all --inven hosts.yml -m ping`), false},
	}
}
