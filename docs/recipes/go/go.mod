module ccs-receiver

go 1.19
