module example.com/maxint

go 1.21
