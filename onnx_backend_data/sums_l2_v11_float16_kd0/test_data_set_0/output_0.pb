
ByJ|CîBÌDcEzEÌD?F2EëEzE{F>D